// SPDX-License-Identifier: MIT
pragma solidity ^0.8.4;

// An ERC20 token with a transfer fee, fee exemptions, a blacklist, EIP-2612 permit and an owner
// who can change the fee within a cap. Written for vigil's deep-layer robustness corpus.

interface IERC20 {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

abstract contract Ownable {
    address private _owner;
    address private _pendingOwner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    constructor() {
        _owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        require(msg.sender == _owner, "Ownable: caller is not the owner");
        _;
    }

    function owner() public view returns (address) {
        return _owner;
    }

    function pendingOwner() public view returns (address) {
        return _pendingOwner;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "Ownable: zero address");
        _pendingOwner = newOwner;
    }

    function acceptOwnership() external {
        require(msg.sender == _pendingOwner, "Ownable: not pending owner");
        emit OwnershipTransferred(_owner, _pendingOwner);
        _owner = _pendingOwner;
        _pendingOwner = address(0);
    }

    function renounceOwnership() external onlyOwner {
        emit OwnershipTransferred(_owner, address(0));
        _owner = address(0);
    }
}

contract FeeToken is IERC20, Ownable {
    string public constant name = "Fee Token";
    string public constant symbol = "FEE";
    uint8 public constant decimals = 18;

    uint256 public constant MAX_FEE_BPS = 500;
    uint256 private constant BPS = 10_000;

    bytes32 public constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

    uint256 private _totalSupply;
    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowances;
    mapping(address => uint256) public nonces;
    mapping(address => bool) public isFeeExempt;
    mapping(address => bool) public isBlacklisted;

    uint256 public feeBps = 200;
    address public feeRecipient;
    bool public tradingEnabled;
    uint256 public maxTxAmount;

    bytes32 private immutable _cachedDomainSeparator;
    uint256 private immutable _cachedChainId;

    event FeeChanged(uint256 oldFee, uint256 newFee);
    event FeeRecipientChanged(address indexed recipient);
    event Blacklisted(address indexed account, bool value);
    event TradingEnabled();

    constructor(uint256 initialSupply, address recipient) {
        require(recipient != address(0), "recipient");
        feeRecipient = recipient;
        isFeeExempt[msg.sender] = true;
        isFeeExempt[recipient] = true;
        maxTxAmount = initialSupply / 100;
        _mint(msg.sender, initialSupply);
        _cachedChainId = block.chainid;
        _cachedDomainSeparator = _buildDomainSeparator();
    }

    function totalSupply() external view override returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) external view override returns (uint256) {
        return _balances[account];
    }

    function allowance(address holder, address spender) external view override returns (uint256) {
        return _allowances[holder][spender];
    }

    function approve(address spender, uint256 amount) external override returns (bool) {
        _approve(msg.sender, spender, amount);
        return true;
    }

    function increaseAllowance(address spender, uint256 added) external returns (bool) {
        _approve(msg.sender, spender, _allowances[msg.sender][spender] + added);
        return true;
    }

    function decreaseAllowance(address spender, uint256 subtracted) external returns (bool) {
        uint256 current = _allowances[msg.sender][spender];
        require(current >= subtracted, "ERC20: decreased allowance below zero");
        unchecked {
            _approve(msg.sender, spender, current - subtracted);
        }
        return true;
    }

    function transfer(address to, uint256 amount) external override returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external override returns (bool) {
        uint256 current = _allowances[from][msg.sender];
        if (current != type(uint256).max) {
            require(current >= amount, "ERC20: insufficient allowance");
            unchecked {
                _approve(from, msg.sender, current - amount);
            }
        }
        _transfer(from, to, amount);
        return true;
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return block.chainid == _cachedChainId ? _cachedDomainSeparator : _buildDomainSeparator();
    }

    function permit(
        address holder,
        address spender,
        uint256 value,
        uint256 deadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        require(block.timestamp <= deadline, "permit: expired");
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, holder, spender, value, nonces[holder]++, deadline));
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        require(uint256(s) <= 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0, "permit: bad s");
        address signer = ecrecover(digest, v, r, s);
        require(signer != address(0) && signer == holder, "permit: invalid signature");
        _approve(holder, spender, value);
    }

    // ----- owner controls -----

    function setFee(uint256 newFeeBps) external onlyOwner {
        require(newFeeBps <= MAX_FEE_BPS, "fee too high");
        emit FeeChanged(feeBps, newFeeBps);
        feeBps = newFeeBps;
    }

    function setFeeRecipient(address recipient) external onlyOwner {
        require(recipient != address(0), "zero");
        feeRecipient = recipient;
        emit FeeRecipientChanged(recipient);
    }

    function setFeeExempt(address account, bool exempt) external onlyOwner {
        isFeeExempt[account] = exempt;
    }

    function setBlacklisted(address account, bool value) external onlyOwner {
        isBlacklisted[account] = value;
        emit Blacklisted(account, value);
    }

    function setMaxTxAmount(uint256 amount) external onlyOwner {
        require(amount >= _totalSupply / 1000, "too small");
        maxTxAmount = amount;
    }

    function enableTrading() external onlyOwner {
        tradingEnabled = true;
        emit TradingEnabled();
    }

    function burn(uint256 amount) external {
        _burn(msg.sender, amount);
    }

    function rescueEther(address payable to) external onlyOwner {
        (bool ok, ) = to.call{value: address(this).balance}("");
        require(ok, "rescue failed");
    }

    // ----- internals -----

    function _transfer(address from, address to, uint256 amount) internal {
        require(from != address(0) && to != address(0), "ERC20: zero address");
        require(!isBlacklisted[from] && !isBlacklisted[to], "blacklisted");
        if (!isFeeExempt[from] && !isFeeExempt[to]) {
            require(tradingEnabled, "trading not enabled");
            require(amount <= maxTxAmount, "max tx");
        }
        uint256 fromBalance = _balances[from];
        require(fromBalance >= amount, "ERC20: transfer amount exceeds balance");
        uint256 fee = 0;
        if (!isFeeExempt[from] && !isFeeExempt[to]) {
            fee = (amount * feeBps) / BPS;
        }
        unchecked {
            _balances[from] = fromBalance - amount;
        }
        _balances[to] += amount - fee;
        emit Transfer(from, to, amount - fee);
        if (fee > 0) {
            _balances[feeRecipient] += fee;
            emit Transfer(from, feeRecipient, fee);
        }
    }

    function _mint(address to, uint256 amount) internal {
        require(to != address(0), "mint to zero");
        _totalSupply += amount;
        _balances[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _burn(address from, uint256 amount) internal {
        uint256 balance = _balances[from];
        require(balance >= amount, "burn exceeds balance");
        unchecked {
            _balances[from] = balance - amount;
            _totalSupply -= amount;
        }
        emit Transfer(from, address(0), amount);
    }

    function _approve(address holder, address spender, uint256 amount) internal {
        require(holder != address(0) && spender != address(0), "approve zero");
        _allowances[holder][spender] = amount;
        emit Approval(holder, spender, amount);
    }

    function _buildDomainSeparator() private view returns (bytes32) {
        return keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256(bytes(name)),
                keccak256(bytes("1")),
                block.chainid,
                address(this)
            )
        );
    }

    receive() external payable {}
}

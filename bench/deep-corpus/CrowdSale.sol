// SPDX-License-Identifier: MIT
pragma solidity ^0.6.12;

// A capped, timed crowdsale with a soft cap and refunds, per-buyer limits, a whitelist tier
// with a bonus, and a vesting vault for the bought tokens; its token is in the same file.
// Robustness corpus for vigil's deep layers (solc 0.6).

contract SaleToken {
    string public constant name = "Sale Token";
    string public constant symbol = "SAL";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    address public minter;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor() public {
        minter = msg.sender;
    }

    function setMinter(address m) external {
        require(msg.sender == minter, "minter");
        minter = m;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "minter");
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        require(balanceOf[msg.sender] >= amount, "balance");
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        require(balanceOf[from] >= amount && allowance[from][msg.sender] >= amount, "balance/allowance");
        allowance[from][msg.sender] -= amount;
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
        return true;
    }
}

contract CrowdSale {
    SaleToken public token;
    address payable public wallet;
    address public owner;

    uint256 public rate;
    uint256 public openingTime;
    uint256 public closingTime;
    uint256 public softCap;
    uint256 public hardCap;
    uint256 public weiRaised;
    uint256 public maxPerBuyer;
    uint256 public whitelistBonusPct = 10;
    bool public finalized;
    bool public refunding;

    uint256 public vestingCliff = 30 days;
    uint256 public vestingDuration = 180 days;

    mapping(address => uint256) public contributions;
    mapping(address => uint256) public purchased;
    mapping(address => uint256) public claimed;
    mapping(address => bool) public whitelisted;

    event TokensPurchased(address indexed purchaser, address indexed beneficiary, uint256 value, uint256 amount);
    event Finalized(bool success);
    event Refunded(address indexed buyer, uint256 amount);
    event Claimed(address indexed buyer, uint256 amount);

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    modifier onlyWhileOpen() {
        require(block.timestamp >= openingTime && block.timestamp <= closingTime, "not open");
        _;
    }

    constructor(uint256 _rate, address payable _wallet, uint256 _softCap, uint256 _hardCap, uint256 _duration) public {
        require(_rate > 0, "rate");
        require(_wallet != address(0), "wallet");
        require(_softCap <= _hardCap && _hardCap > 0, "caps");
        token = new SaleToken();
        owner = msg.sender;
        rate = _rate;
        wallet = _wallet;
        softCap = _softCap;
        hardCap = _hardCap;
        openingTime = block.timestamp;
        closingTime = block.timestamp + (_duration == 0 ? 14 days : _duration);
        maxPerBuyer = _hardCap / 10;
    }

    receive() external payable {
        buyTokens(msg.sender);
    }

    function setWhitelist(address[] calldata buyers, bool value) external onlyOwner {
        for (uint256 i = 0; i < buyers.length; i++) whitelisted[buyers[i]] = value;
    }

    function buyTokens(address beneficiary) public payable onlyWhileOpen {
        require(beneficiary != address(0), "beneficiary");
        require(msg.value > 0, "no value");
        require(weiRaised + msg.value <= hardCap, "hard cap");
        require(contributions[beneficiary] + msg.value <= maxPerBuyer, "buyer cap");
        uint256 amount = msg.value * rate;
        if (whitelisted[beneficiary]) amount += (amount * whitelistBonusPct) / 100;
        weiRaised += msg.value;
        contributions[beneficiary] += msg.value;
        purchased[beneficiary] += amount;
        emit TokensPurchased(msg.sender, beneficiary, msg.value, amount);
    }

    function hasClosed() public view returns (bool) {
        return block.timestamp > closingTime || weiRaised >= hardCap;
    }

    function goalReached() public view returns (bool) {
        return weiRaised >= softCap;
    }

    function finalize() external onlyOwner {
        require(!finalized, "finalized");
        require(hasClosed(), "not closed");
        finalized = true;
        if (goalReached()) {
            token.mint(address(this), totalPurchased());
            (bool ok, ) = wallet.call{value: address(this).balance}("");
            require(ok, "forward failed");
        } else {
            refunding = true;
        }
        emit Finalized(!refunding);
    }

    uint256 private _totalPurchased;

    function totalPurchased() public view returns (uint256) {
        return _totalPurchased == 0 ? weiRaised * rate * (100 + whitelistBonusPct) / 100 : _totalPurchased;
    }

    function claimRefund() external {
        require(refunding, "not refunding");
        uint256 amount = contributions[msg.sender];
        require(amount > 0, "nothing to refund");
        contributions[msg.sender] = 0;
        purchased[msg.sender] = 0;
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "refund failed");
        emit Refunded(msg.sender, amount);
    }

    function vestedAmount(address buyer) public view returns (uint256) {
        if (!finalized || refunding) return 0;
        uint256 total = purchased[buyer];
        uint256 start = closingTime;
        if (block.timestamp < start + vestingCliff) return 0;
        if (block.timestamp >= start + vestingDuration) return total;
        return (total * (block.timestamp - start)) / vestingDuration;
    }

    function claimTokens() external {
        uint256 vested = vestedAmount(msg.sender);
        uint256 amount = vested - claimed[msg.sender];
        require(amount > 0, "nothing vested");
        claimed[msg.sender] += amount;
        require(token.transfer(msg.sender, amount), "transfer");
        emit Claimed(msg.sender, amount);
    }

    function extendClosing(uint256 newClosing) external onlyOwner {
        require(!hasClosed(), "closed");
        require(newClosing > closingTime && newClosing <= closingTime + 30 days, "closing");
        closingTime = newClosing;
    }

    function setRate(uint256 newRate) external onlyOwner {
        require(block.timestamp < openingTime, "started");
        rate = newRate;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "zero");
        owner = newOwner;
    }
}

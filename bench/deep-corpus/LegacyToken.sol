pragma solidity ^0.5.0;

// A 2019-style ERC20: SafeMath, pausable, mintable with a cap, burnable, with roles for minters
// and pausers, a token-timelock for team allocations, and batch transfers. Robustness corpus
// for vigil's deep layers (solc 0.5).

library SafeMath {
    function add(uint256 a, uint256 b) internal pure returns (uint256) {
        uint256 c = a + b;
        require(c >= a, "SafeMath: addition overflow");
        return c;
    }

    function sub(uint256 a, uint256 b) internal pure returns (uint256) {
        require(b <= a, "SafeMath: subtraction overflow");
        return a - b;
    }

    function mul(uint256 a, uint256 b) internal pure returns (uint256) {
        if (a == 0) return 0;
        uint256 c = a * b;
        require(c / a == b, "SafeMath: multiplication overflow");
        return c;
    }

    function div(uint256 a, uint256 b) internal pure returns (uint256) {
        require(b > 0, "SafeMath: division by zero");
        return a / b;
    }
}

library Roles {
    struct Role {
        mapping(address => bool) bearer;
    }

    function add(Role storage role, address account) internal {
        require(!has(role, account), "Roles: account already has role");
        role.bearer[account] = true;
    }

    function remove(Role storage role, address account) internal {
        require(has(role, account), "Roles: account does not have role");
        role.bearer[account] = false;
    }

    function has(Role storage role, address account) internal view returns (bool) {
        require(account != address(0), "Roles: account is the zero address");
        return role.bearer[account];
    }
}

contract LegacyToken {
    using SafeMath for uint256;
    using Roles for Roles.Role;

    string public name = "Legacy Token";
    string public symbol = "LGT";
    uint8 public decimals = 18;
    uint256 public cap;
    uint256 private _totalSupply;
    bool public paused;

    mapping(address => uint256) private _balances;
    mapping(address => mapping(address => uint256)) private _allowed;

    Roles.Role private _minters;
    Roles.Role private _pausers;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Paused(address account);
    event Unpaused(address account);
    event MinterAdded(address indexed account);
    event MinterRemoved(address indexed account);

    modifier onlyMinter() {
        require(_minters.has(msg.sender), "MinterRole: caller does not have the Minter role");
        _;
    }

    modifier onlyPauser() {
        require(_pausers.has(msg.sender), "PauserRole: caller does not have the Pauser role");
        _;
    }

    modifier whenNotPaused() {
        require(!paused, "Pausable: paused");
        _;
    }

    constructor(uint256 _cap, uint256 initial) public {
        require(_cap > 0 && initial <= _cap, "cap");
        cap = _cap;
        _minters.add(msg.sender);
        _pausers.add(msg.sender);
        _mint(msg.sender, initial);
    }

    function totalSupply() public view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address owner) public view returns (uint256) {
        return _balances[owner];
    }

    function allowance(address owner, address spender) public view returns (uint256) {
        return _allowed[owner][spender];
    }

    function transfer(address to, uint256 value) public whenNotPaused returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) public whenNotPaused returns (bool) {
        require(spender != address(0), "approve to zero");
        _allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) public whenNotPaused returns (bool) {
        _allowed[from][msg.sender] = _allowed[from][msg.sender].sub(value);
        _transfer(from, to, value);
        emit Approval(from, msg.sender, _allowed[from][msg.sender]);
        return true;
    }

    function batchTransfer(address[] memory recipients, uint256[] memory values) public whenNotPaused returns (bool) {
        require(recipients.length == values.length, "length mismatch");
        require(recipients.length <= 100, "too many");
        for (uint256 i = 0; i < recipients.length; i++) {
            _transfer(msg.sender, recipients[i], values[i]);
        }
        return true;
    }

    function mint(address to, uint256 value) public onlyMinter returns (bool) {
        _mint(to, value);
        return true;
    }

    function burn(uint256 value) public {
        _burn(msg.sender, value);
    }

    function burnFrom(address from, uint256 value) public {
        _allowed[from][msg.sender] = _allowed[from][msg.sender].sub(value);
        _burn(from, value);
    }

    function pause() public onlyPauser {
        require(!paused, "already paused");
        paused = true;
        emit Paused(msg.sender);
    }

    function unpause() public onlyPauser {
        require(paused, "not paused");
        paused = false;
        emit Unpaused(msg.sender);
    }

    function addMinter(address account) public onlyMinter {
        _minters.add(account);
        emit MinterAdded(account);
    }

    function renounceMinter() public {
        _minters.remove(msg.sender);
        emit MinterRemoved(msg.sender);
    }

    function isMinter(address account) public view returns (bool) {
        return _minters.has(account);
    }

    function _transfer(address from, address to, uint256 value) internal {
        require(to != address(0), "transfer to zero");
        _balances[from] = _balances[from].sub(value);
        _balances[to] = _balances[to].add(value);
        emit Transfer(from, to, value);
    }

    function _mint(address account, uint256 value) internal {
        require(account != address(0), "mint to zero");
        require(_totalSupply.add(value) <= cap, "cap exceeded");
        _totalSupply = _totalSupply.add(value);
        _balances[account] = _balances[account].add(value);
        emit Transfer(address(0), account, value);
    }

    function _burn(address account, uint256 value) internal {
        require(account != address(0), "burn from zero");
        _totalSupply = _totalSupply.sub(value);
        _balances[account] = _balances[account].sub(value);
        emit Transfer(account, address(0), value);
    }
}

contract TokenTimelock {
    LegacyToken public token;
    address public beneficiary;
    uint256 public releaseTime;
    uint256 public released;
    uint256 public vestingStart;
    uint256 public vestingDuration;

    event Released(uint256 amount);

    constructor(LegacyToken _token, address _beneficiary, uint256 _releaseTime, uint256 _duration) public {
        require(_releaseTime > block.timestamp, "release time is before current time");
        token = _token;
        beneficiary = _beneficiary;
        releaseTime = _releaseTime;
        vestingStart = _releaseTime;
        vestingDuration = _duration;
    }

    function vested() public view returns (uint256) {
        uint256 total = token.balanceOf(address(this)) + released;
        if (block.timestamp < vestingStart) return 0;
        if (block.timestamp >= vestingStart + vestingDuration || vestingDuration == 0) return total;
        return total * (block.timestamp - vestingStart) / vestingDuration;
    }

    function release() public {
        require(block.timestamp >= releaseTime, "current time is before release time");
        uint256 amount = vested() - released;
        require(amount > 0, "no tokens to release");
        released += amount;
        require(token.transfer(beneficiary, amount), "transfer failed");
        emit Released(amount);
    }
}

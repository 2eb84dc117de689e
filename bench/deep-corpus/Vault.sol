// SPDX-License-Identifier: MIT
pragma solidity ^0.8.12;

// An ERC4626-style vault: deposits an ERC20 asset, mints shares, charges a withdrawal fee and a
// management fee, lets a strategist move idle assets to an allow-listed strategy, and pauses.
// The asset token is in the same file. Robustness corpus for vigil's deep layers.

contract AssetToken {
    string public name = "Asset";
    string public symbol = "AST";
    uint8 public decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    address public minter;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor() {
        minter = msg.sender;
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
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 a = allowance[from][msg.sender];
        if (a != type(uint256).max) allowance[from][msg.sender] = a - amount;
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
        return true;
    }
}

interface IStrategy {
    function invest(uint256 amount) external;
    function divest(uint256 amount) external returns (uint256);
    function totalValue() external view returns (uint256);
}

contract Vault {
    AssetToken public immutable asset;
    string public constant name = "Vault Shares";
    string public constant symbol = "vAST";
    uint8 public constant decimals = 18;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    address public governance;
    address public strategist;
    address public treasury;
    IStrategy public strategy;
    mapping(address => bool) public approvedStrategy;

    uint256 public withdrawalFeeBps = 30;
    uint256 public managementFeeBps = 200;
    uint256 public lastFeeAccrual;
    uint256 public depositLimit = type(uint256).max;
    bool public paused;

    uint256 private constant BPS = 10_000;
    uint256 private constant YEAR = 365 days;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Deposit(address indexed caller, address indexed owner, uint256 assets, uint256 shares);
    event Withdraw(address indexed caller, address indexed receiver, address indexed owner, uint256 assets, uint256 shares);
    event StrategyChanged(address strategy);

    modifier onlyGovernance() {
        require(msg.sender == governance, "governance");
        _;
    }

    modifier whenNotPaused() {
        require(!paused, "paused");
        _;
    }

    constructor(AssetToken asset_, address treasury_) {
        asset = asset_;
        governance = msg.sender;
        strategist = msg.sender;
        treasury = treasury_;
        lastFeeAccrual = block.timestamp;
    }

    // ----- share token -----

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _moveShares(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        _spendAllowance(from, msg.sender, amount);
        _moveShares(from, to, amount);
        return true;
    }

    // ----- accounting -----

    function totalAssets() public view returns (uint256) {
        uint256 idle = asset.balanceOf(address(this));
        uint256 invested = address(strategy) == address(0) ? 0 : strategy.totalValue();
        return idle + invested;
    }

    function convertToShares(uint256 assets) public view returns (uint256) {
        uint256 supply = totalSupply;
        return supply == 0 ? assets : (assets * supply) / totalAssets();
    }

    function convertToAssets(uint256 shares) public view returns (uint256) {
        uint256 supply = totalSupply;
        return supply == 0 ? shares : (shares * totalAssets()) / supply;
    }

    function previewWithdraw(uint256 assets) public view returns (uint256) {
        uint256 supply = totalSupply;
        uint256 gross = (assets * BPS) / (BPS - withdrawalFeeBps);
        return supply == 0 ? gross : (gross * supply + totalAssets() - 1) / totalAssets();
    }

    // ----- deposits and withdrawals -----

    function deposit(uint256 assets, address receiver) external whenNotPaused returns (uint256 shares) {
        _accrueManagementFee();
        require(totalAssets() + assets <= depositLimit, "deposit limit");
        shares = convertToShares(assets);
        require(shares > 0, "zero shares");
        require(asset.transferFrom(msg.sender, address(this), assets), "transfer in");
        _mintShares(receiver, shares);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function withdraw(uint256 assets, address receiver, address holder) external returns (uint256 shares) {
        _accrueManagementFee();
        shares = previewWithdraw(assets);
        if (msg.sender != holder) _spendAllowance(holder, msg.sender, shares);
        _burnShares(holder, shares);
        _ensureIdle(assets);
        uint256 fee = (assets * withdrawalFeeBps) / BPS;
        require(asset.transfer(receiver, assets), "transfer out");
        if (fee > 0) require(asset.transfer(treasury, fee), "fee out");
        emit Withdraw(msg.sender, receiver, holder, assets, shares);
    }

    function redeem(uint256 shares, address receiver, address holder) external returns (uint256 assets) {
        _accrueManagementFee();
        if (msg.sender != holder) _spendAllowance(holder, msg.sender, shares);
        uint256 gross = convertToAssets(shares);
        uint256 fee = (gross * withdrawalFeeBps) / BPS;
        assets = gross - fee;
        _burnShares(holder, shares);
        _ensureIdle(gross);
        require(asset.transfer(receiver, assets), "transfer out");
        if (fee > 0) require(asset.transfer(treasury, fee), "fee out");
        emit Withdraw(msg.sender, receiver, holder, assets, shares);
    }

    // ----- strategy -----

    function approveStrategy(address s, bool ok) external onlyGovernance {
        approvedStrategy[s] = ok;
    }

    function setStrategy(IStrategy s) external onlyGovernance {
        require(approvedStrategy[address(s)], "strategy not approved");
        if (address(strategy) != address(0)) {
            strategy.divest(strategy.totalValue());
        }
        strategy = s;
        emit StrategyChanged(address(s));
    }

    function invest(uint256 amount) external {
        require(msg.sender == strategist || msg.sender == governance, "strategist");
        require(address(strategy) != address(0), "no strategy");
        require(asset.transfer(address(strategy), amount), "transfer");
        strategy.invest(amount);
    }

    function setFees(uint256 withdrawalBps, uint256 managementBps) external onlyGovernance {
        require(withdrawalBps <= 100 && managementBps <= 500, "fees");
        _accrueManagementFee();
        withdrawalFeeBps = withdrawalBps;
        managementFeeBps = managementBps;
    }

    function setDepositLimit(uint256 limit) external onlyGovernance {
        depositLimit = limit;
    }

    function setPaused(bool value) external onlyGovernance {
        paused = value;
    }

    function setGovernance(address g) external onlyGovernance {
        require(g != address(0), "zero");
        governance = g;
    }

    function setStrategist(address s) external onlyGovernance {
        strategist = s;
    }

    // ----- internals -----

    function _ensureIdle(uint256 needed) internal {
        uint256 idle = asset.balanceOf(address(this));
        if (idle < needed && address(strategy) != address(0)) {
            strategy.divest(needed - idle);
        }
    }

    function _accrueManagementFee() internal {
        uint256 elapsed = block.timestamp - lastFeeAccrual;
        lastFeeAccrual = block.timestamp;
        if (elapsed == 0 || totalSupply == 0 || managementFeeBps == 0) return;
        uint256 feeShares = (totalSupply * managementFeeBps * elapsed) / (BPS * YEAR);
        if (feeShares > 0) _mintShares(treasury, feeShares);
    }

    function _spendAllowance(address holder, address spender, uint256 amount) internal {
        uint256 a = allowance[holder][spender];
        if (a != type(uint256).max) {
            require(a >= amount, "allowance");
            allowance[holder][spender] = a - amount;
        }
    }

    function _moveShares(address from, address to, uint256 amount) internal {
        require(balanceOf[from] >= amount, "balance");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }

    function _mintShares(address to, uint256 amount) internal {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _burnShares(address from, uint256 amount) internal {
        require(balanceOf[from] >= amount, "balance");
        balanceOf[from] -= amount;
        totalSupply -= amount;
        emit Transfer(from, address(0), amount);
    }
}

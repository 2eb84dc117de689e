// SPDX-License-Identifier: MIT
pragma solidity ^0.7.6;

// A single-market lending pool: lenders deposit ether for interest-bearing shares, borrowers
// post an ERC20 as collateral priced by an owner-set oracle, borrow ether up to a collateral
// factor, repay with interest accrued per second, and undercollateralised positions are
// liquidated with a bonus. Robustness corpus for vigil's deep layers (solc 0.7).

interface IPriceOracle {
    function price(address token) external view returns (uint256);
}

contract ManualOracle is IPriceOracle {
    address public owner;
    mapping(address => uint256) public prices;

    constructor() {
        owner = msg.sender;
    }

    function setPrice(address token, uint256 p) external {
        require(msg.sender == owner, "owner");
        prices[token] = p;
    }

    function price(address token) external view override returns (uint256) {
        return prices[token];
    }
}

contract CollateralToken {
    string public constant name = "Collateral";
    string public constant symbol = "COL";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(uint256 supply) {
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
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

contract LendingPool {
    uint256 private constant WAD = 1e18;

    address public owner;
    CollateralToken public collateral;
    IPriceOracle public oracle;

    uint256 public collateralFactor = 0.75e18;
    uint256 public liquidationBonus = 1.08e18;
    uint256 public ratePerSecond = 3170979198; // ~10% a year
    uint256 public reserveFactor = 0.1e18;

    uint256 public totalShares;
    uint256 public totalBorrows;
    uint256 public totalReserves;
    uint256 public borrowIndex = WAD;
    uint256 public lastAccrual;

    mapping(address => uint256) public shares;
    mapping(address => uint256) public collateralOf;
    mapping(address => uint256) public principal;
    mapping(address => uint256) public userIndex;

    bool private locked;

    event Deposit(address indexed user, uint256 amount, uint256 shares);
    event Redeem(address indexed user, uint256 amount, uint256 shares);
    event Borrow(address indexed user, uint256 amount);
    event Repay(address indexed user, uint256 amount);
    event Liquidate(address indexed liquidator, address indexed borrower, uint256 repaid, uint256 seized);

    modifier nonReentrant() {
        require(!locked, "locked");
        locked = true;
        _;
        locked = false;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    constructor(CollateralToken _collateral, IPriceOracle _oracle) {
        owner = msg.sender;
        collateral = _collateral;
        oracle = _oracle;
        lastAccrual = block.timestamp;
    }

    // ----- interest -----

    function accrue() public {
        uint256 elapsed = block.timestamp - lastAccrual;
        if (elapsed == 0) return;
        lastAccrual = block.timestamp;
        if (totalBorrows == 0) return;
        uint256 factor = ratePerSecond * elapsed;
        uint256 interest = (totalBorrows * factor) / WAD;
        totalBorrows += interest;
        totalReserves += (interest * reserveFactor) / WAD;
        borrowIndex += (borrowIndex * factor) / WAD;
    }

    function cash() public view returns (uint256) {
        return address(this).balance;
    }

    function exchangeRate() public view returns (uint256) {
        if (totalShares == 0) return WAD;
        return ((cash() + totalBorrows - totalReserves) * WAD) / totalShares;
    }

    function debtOf(address user) public view returns (uint256) {
        if (principal[user] == 0) return 0;
        return (principal[user] * borrowIndex) / userIndex[user];
    }

    function borrowLimit(address user) public view returns (uint256) {
        uint256 value = (collateralOf[user] * oracle.price(address(collateral))) / WAD;
        return (value * collateralFactor) / WAD;
    }

    // ----- lenders -----

    function deposit() external payable nonReentrant {
        accrue();
        require(msg.value > 0, "zero");
        uint256 rate = ((cash() - msg.value + totalBorrows - totalReserves) * WAD) / (totalShares == 0 ? WAD : totalShares);
        uint256 minted = totalShares == 0 ? msg.value : (msg.value * WAD) / rate;
        shares[msg.sender] += minted;
        totalShares += minted;
        emit Deposit(msg.sender, msg.value, minted);
    }

    function redeem(uint256 shareAmount) external nonReentrant {
        accrue();
        require(shares[msg.sender] >= shareAmount, "shares");
        uint256 amount = (shareAmount * exchangeRate()) / WAD;
        require(amount <= cash(), "insufficient cash");
        shares[msg.sender] -= shareAmount;
        totalShares -= shareAmount;
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "send failed");
        emit Redeem(msg.sender, amount, shareAmount);
    }

    // ----- borrowers -----

    function addCollateral(uint256 amount) external nonReentrant {
        require(collateral.transferFrom(msg.sender, address(this), amount), "transfer");
        collateralOf[msg.sender] += amount;
    }

    function removeCollateral(uint256 amount) external nonReentrant {
        accrue();
        require(collateralOf[msg.sender] >= amount, "collateral");
        collateralOf[msg.sender] -= amount;
        require(debtOf(msg.sender) <= borrowLimit(msg.sender), "undercollateralised");
        require(collateral.transfer(msg.sender, amount), "transfer");
    }

    function borrow(uint256 amount) external nonReentrant {
        accrue();
        uint256 debt = debtOf(msg.sender) + amount;
        require(debt <= borrowLimit(msg.sender), "borrow limit");
        require(amount <= cash(), "insufficient cash");
        principal[msg.sender] = debt;
        userIndex[msg.sender] = borrowIndex;
        totalBorrows += amount;
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "send failed");
        emit Borrow(msg.sender, amount);
    }

    function repay() external payable nonReentrant {
        accrue();
        uint256 debt = debtOf(msg.sender);
        uint256 paid = msg.value > debt ? debt : msg.value;
        principal[msg.sender] = debt - paid;
        userIndex[msg.sender] = borrowIndex;
        totalBorrows = totalBorrows > paid ? totalBorrows - paid : 0;
        if (msg.value > paid) {
            (bool ok, ) = msg.sender.call{value: msg.value - paid}("");
            require(ok, "refund failed");
        }
        emit Repay(msg.sender, paid);
    }

    function liquidate(address borrower) external payable nonReentrant {
        accrue();
        uint256 debt = debtOf(borrower);
        require(debt > borrowLimit(borrower), "healthy");
        uint256 repaid = msg.value > debt / 2 ? debt / 2 : msg.value;
        uint256 p = oracle.price(address(collateral));
        require(p > 0, "no price");
        uint256 seize = (repaid * liquidationBonus) / p;
        if (seize > collateralOf[borrower]) seize = collateralOf[borrower];
        principal[borrower] = debt - repaid;
        userIndex[borrower] = borrowIndex;
        totalBorrows = totalBorrows > repaid ? totalBorrows - repaid : 0;
        collateralOf[borrower] -= seize;
        require(collateral.transfer(msg.sender, seize), "seize");
        if (msg.value > repaid) {
            (bool ok, ) = msg.sender.call{value: msg.value - repaid}("");
            require(ok, "refund failed");
        }
        emit Liquidate(msg.sender, borrower, repaid, seize);
    }

    // ----- admin -----

    function setParameters(uint256 cf, uint256 bonus, uint256 rate, uint256 rf) external onlyOwner {
        require(cf <= 0.9e18 && bonus >= WAD && bonus <= 1.2e18 && rf <= 0.5e18, "params");
        accrue();
        collateralFactor = cf;
        liquidationBonus = bonus;
        ratePerSecond = rate;
        reserveFactor = rf;
    }

    function setOracle(IPriceOracle o) external onlyOwner {
        oracle = o;
    }

    function withdrawReserves(uint256 amount, address payable to) external onlyOwner nonReentrant {
        accrue();
        require(amount <= totalReserves && amount <= cash(), "reserves");
        totalReserves -= amount;
        (bool ok, ) = to.call{value: amount}("");
        require(ok, "send failed");
    }
}

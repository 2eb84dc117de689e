// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

// Synthetix-style staking rewards: stake a token, earn a reward token at a rate the reward
// distributor sets per period, with a lock-up, an emergency exit and a boost for long locks.
// Minimal ERC20s in the same file. Robustness corpus for vigil's deep layers.

contract SimpleToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory n, string memory s, uint256 supply) {
        name = n;
        symbol = s;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
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
        require(balanceOf[from] >= amount, "balance");
        require(allowance[from][msg.sender] >= amount, "allowance");
        allowance[from][msg.sender] -= amount;
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
        return true;
    }
}

contract StakingRewards {
    SimpleToken public immutable stakingToken;
    SimpleToken public immutable rewardsToken;

    address public owner;
    address public rewardsDistribution;

    uint256 public periodFinish;
    uint256 public rewardRate;
    uint256 public rewardsDuration = 7 days;
    uint256 public lastUpdateTime;
    uint256 public rewardPerTokenStored;
    uint256 public lockDuration = 3 days;

    mapping(address => uint256) public userRewardPerTokenPaid;
    mapping(address => uint256) public rewards;
    mapping(address => uint256) public unlockTime;
    mapping(address => uint256) public boostBps;

    uint256 private _totalSupply;
    uint256 private _totalBoosted;
    mapping(address => uint256) private _balances;
    bool private _entered;

    event Staked(address indexed user, uint256 amount);
    event Withdrawn(address indexed user, uint256 amount);
    event RewardPaid(address indexed user, uint256 reward);
    event RewardAdded(uint256 reward);
    event Recovered(address token, uint256 amount);

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    modifier nonReentrant() {
        require(!_entered, "reentrancy");
        _entered = true;
        _;
        _entered = false;
    }

    modifier updateReward(address account) {
        rewardPerTokenStored = rewardPerToken();
        lastUpdateTime = lastTimeRewardApplicable();
        if (account != address(0)) {
            rewards[account] = earned(account);
            userRewardPerTokenPaid[account] = rewardPerTokenStored;
        }
        _;
    }

    constructor(SimpleToken staking, SimpleToken reward) {
        owner = msg.sender;
        rewardsDistribution = msg.sender;
        stakingToken = staking;
        rewardsToken = reward;
    }

    // ----- views -----

    function totalSupply() external view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address account) external view returns (uint256) {
        return _balances[account];
    }

    function boosted(address account) public view returns (uint256) {
        return (_balances[account] * (10_000 + boostBps[account])) / 10_000;
    }

    function lastTimeRewardApplicable() public view returns (uint256) {
        return block.timestamp < periodFinish ? block.timestamp : periodFinish;
    }

    function rewardPerToken() public view returns (uint256) {
        if (_totalBoosted == 0) return rewardPerTokenStored;
        return rewardPerTokenStored + ((lastTimeRewardApplicable() - lastUpdateTime) * rewardRate * 1e18) / _totalBoosted;
    }

    function earned(address account) public view returns (uint256) {
        return (boosted(account) * (rewardPerToken() - userRewardPerTokenPaid[account])) / 1e18 + rewards[account];
    }

    function getRewardForDuration() external view returns (uint256) {
        return rewardRate * rewardsDuration;
    }

    // ----- user actions -----

    function stake(uint256 amount, uint256 extraLock) external nonReentrant updateReward(msg.sender) {
        require(amount > 0, "Cannot stake 0");
        require(extraLock <= 365 days, "lock too long");
        _totalBoosted -= boosted(msg.sender);
        _totalSupply += amount;
        _balances[msg.sender] += amount;
        uint256 until = block.timestamp + lockDuration + extraLock;
        if (until > unlockTime[msg.sender]) unlockTime[msg.sender] = until;
        uint256 boost = (extraLock * 5_000) / 365 days;
        if (boost > boostBps[msg.sender]) boostBps[msg.sender] = boost;
        _totalBoosted += boosted(msg.sender);
        require(stakingToken.transferFrom(msg.sender, address(this), amount), "transfer");
        emit Staked(msg.sender, amount);
    }

    function withdraw(uint256 amount) public nonReentrant updateReward(msg.sender) {
        require(amount > 0, "Cannot withdraw 0");
        require(block.timestamp >= unlockTime[msg.sender], "locked");
        _totalBoosted -= boosted(msg.sender);
        _totalSupply -= amount;
        _balances[msg.sender] -= amount;
        if (_balances[msg.sender] == 0) boostBps[msg.sender] = 0;
        _totalBoosted += boosted(msg.sender);
        require(stakingToken.transfer(msg.sender, amount), "transfer");
        emit Withdrawn(msg.sender, amount);
    }

    function getReward() public nonReentrant updateReward(msg.sender) {
        uint256 reward = rewards[msg.sender];
        if (reward > 0) {
            rewards[msg.sender] = 0;
            require(rewardsToken.transfer(msg.sender, reward), "transfer");
            emit RewardPaid(msg.sender, reward);
        }
    }

    function exit() external {
        withdraw(_balances[msg.sender]);
        getReward();
    }

    /// Leaves without rewards and with a 10% penalty on a locked stake.
    function emergencyWithdraw() external nonReentrant {
        uint256 amount = _balances[msg.sender];
        require(amount > 0, "nothing staked");
        _totalBoosted -= boosted(msg.sender);
        _totalSupply -= amount;
        _balances[msg.sender] = 0;
        boostBps[msg.sender] = 0;
        rewards[msg.sender] = 0;
        uint256 penalty = block.timestamp < unlockTime[msg.sender] ? amount / 10 : 0;
        require(stakingToken.transfer(msg.sender, amount - penalty), "transfer");
        if (penalty > 0) require(stakingToken.transfer(owner, penalty), "penalty");
        emit Withdrawn(msg.sender, amount);
    }

    // ----- reward distribution -----

    function notifyRewardAmount(uint256 reward) external updateReward(address(0)) {
        require(msg.sender == rewardsDistribution, "distribution");
        if (block.timestamp >= periodFinish) {
            rewardRate = reward / rewardsDuration;
        } else {
            uint256 remaining = periodFinish - block.timestamp;
            uint256 leftover = remaining * rewardRate;
            rewardRate = (reward + leftover) / rewardsDuration;
        }
        uint256 balance = rewardsToken.balanceOf(address(this));
        require(rewardRate <= balance / rewardsDuration, "Provided reward too high");
        lastUpdateTime = block.timestamp;
        periodFinish = block.timestamp + rewardsDuration;
        emit RewardAdded(reward);
    }

    function setRewardsDuration(uint256 duration) external onlyOwner {
        require(block.timestamp > periodFinish, "period active");
        require(duration > 0, "zero");
        rewardsDuration = duration;
    }

    function setRewardsDistribution(address d) external onlyOwner {
        rewardsDistribution = d;
    }

    function setLockDuration(uint256 d) external onlyOwner {
        require(d <= 30 days, "too long");
        lockDuration = d;
    }

    function recoverERC20(SimpleToken token, uint256 amount) external onlyOwner {
        require(address(token) != address(stakingToken), "staking token");
        require(token.transfer(owner, amount), "transfer");
        emit Recovered(address(token), amount);
    }
}

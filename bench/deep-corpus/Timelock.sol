// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

// A Compound-style timelock and a token-weighted governor that queues proposals in it. The
// governor counts votes from checkpointed balances of its own governance token. Robustness
// corpus for vigil's deep layers.

contract Timelock {
    uint256 public constant GRACE_PERIOD = 14 days;
    uint256 public constant MINIMUM_DELAY = 2 days;
    uint256 public constant MAXIMUM_DELAY = 30 days;

    address public admin;
    address public pendingAdmin;
    uint256 public delay;
    mapping(bytes32 => bool) public queuedTransactions;

    event NewAdmin(address indexed newAdmin);
    event NewPendingAdmin(address indexed newPendingAdmin);
    event NewDelay(uint256 indexed newDelay);
    event QueueTransaction(bytes32 indexed txHash, address indexed target, uint256 value, string signature, bytes data, uint256 eta);
    event CancelTransaction(bytes32 indexed txHash, address indexed target, uint256 value, string signature, bytes data, uint256 eta);
    event ExecuteTransaction(bytes32 indexed txHash, address indexed target, uint256 value, string signature, bytes data, uint256 eta);

    constructor(address admin_, uint256 delay_) {
        require(delay_ >= MINIMUM_DELAY && delay_ <= MAXIMUM_DELAY, "Timelock: delay");
        admin = admin_;
        delay = delay_;
    }

    receive() external payable {}

    function setDelay(uint256 delay_) external {
        require(msg.sender == address(this), "Timelock: call must come from Timelock");
        require(delay_ >= MINIMUM_DELAY && delay_ <= MAXIMUM_DELAY, "Timelock: delay");
        delay = delay_;
        emit NewDelay(delay_);
    }

    function acceptAdmin() external {
        require(msg.sender == pendingAdmin, "Timelock: call must come from pendingAdmin");
        admin = msg.sender;
        pendingAdmin = address(0);
        emit NewAdmin(admin);
    }

    function setPendingAdmin(address pendingAdmin_) external {
        require(msg.sender == address(this), "Timelock: call must come from Timelock");
        pendingAdmin = pendingAdmin_;
        emit NewPendingAdmin(pendingAdmin_);
    }

    function queueTransaction(address target, uint256 value, string memory signature, bytes memory data, uint256 eta) public returns (bytes32) {
        require(msg.sender == admin, "Timelock: call must come from admin");
        require(eta >= block.timestamp + delay, "Timelock: eta too early");
        bytes32 txHash = keccak256(abi.encode(target, value, signature, data, eta));
        queuedTransactions[txHash] = true;
        emit QueueTransaction(txHash, target, value, signature, data, eta);
        return txHash;
    }

    function cancelTransaction(address target, uint256 value, string memory signature, bytes memory data, uint256 eta) public {
        require(msg.sender == admin, "Timelock: call must come from admin");
        bytes32 txHash = keccak256(abi.encode(target, value, signature, data, eta));
        queuedTransactions[txHash] = false;
        emit CancelTransaction(txHash, target, value, signature, data, eta);
    }

    function executeTransaction(address target, uint256 value, string memory signature, bytes memory data, uint256 eta)
        public
        payable
        returns (bytes memory)
    {
        require(msg.sender == admin, "Timelock: call must come from admin");
        bytes32 txHash = keccak256(abi.encode(target, value, signature, data, eta));
        require(queuedTransactions[txHash], "Timelock: not queued");
        require(block.timestamp >= eta, "Timelock: not past eta");
        require(block.timestamp <= eta + GRACE_PERIOD, "Timelock: stale");
        queuedTransactions[txHash] = false;
        bytes memory callData = bytes(signature).length == 0 ? data : abi.encodePacked(bytes4(keccak256(bytes(signature))), data);
        (bool success, bytes memory returnData) = target.call{value: value}(callData);
        require(success, "Timelock: execution reverted");
        emit ExecuteTransaction(txHash, target, value, signature, data, eta);
        return returnData;
    }
}

contract GovToken {
    string public constant name = "Gov";
    string public constant symbol = "GOV";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    struct Checkpoint {
        uint64 fromBlock;
        uint192 votes;
    }
    mapping(address => Checkpoint[]) public checkpoints;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(uint256 supply) {
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        _write(msg.sender, supply);
        emit Transfer(address(0), msg.sender, supply);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        require(allowance[from][msg.sender] >= amount, "allowance");
        allowance[from][msg.sender] -= amount;
        _move(from, to, amount);
        return true;
    }

    function getPriorVotes(address account, uint256 blockNumber) external view returns (uint256) {
        require(blockNumber < block.number, "not yet determined");
        Checkpoint[] storage cps = checkpoints[account];
        uint256 n = cps.length;
        if (n == 0 || cps[0].fromBlock > blockNumber) return 0;
        uint256 lo = 0;
        uint256 hi = n - 1;
        while (hi > lo) {
            uint256 mid = hi - (hi - lo) / 2;
            if (cps[mid].fromBlock <= blockNumber) lo = mid;
            else hi = mid - 1;
        }
        return cps[lo].votes;
    }

    function _move(address from, address to, uint256 amount) internal {
        require(balanceOf[from] >= amount, "balance");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        _write(from, balanceOf[from]);
        _write(to, balanceOf[to]);
        emit Transfer(from, to, amount);
    }

    function _write(address account, uint256 votes) internal {
        Checkpoint[] storage cps = checkpoints[account];
        if (cps.length > 0 && cps[cps.length - 1].fromBlock == block.number) {
            cps[cps.length - 1].votes = uint192(votes);
        } else {
            cps.push(Checkpoint(uint64(block.number), uint192(votes)));
        }
    }
}

contract Governor {
    struct Proposal {
        address proposer;
        address target;
        uint256 value;
        bytes data;
        uint256 startBlock;
        uint256 endBlock;
        uint256 forVotes;
        uint256 againstVotes;
        uint256 eta;
        bool canceled;
        bool executed;
    }

    Timelock public immutable timelock;
    GovToken public immutable token;
    uint256 public constant VOTING_PERIOD = 17_280;
    uint256 public constant QUORUM = 400_000e18;
    uint256 public proposalCount;
    mapping(uint256 => Proposal) public proposals;
    mapping(uint256 => mapping(address => bool)) public hasVoted;

    event ProposalCreated(uint256 id, address proposer);
    event VoteCast(address voter, uint256 id, bool support, uint256 votes);

    constructor(Timelock timelock_, GovToken token_) {
        timelock = timelock_;
        token = token_;
    }

    function propose(address target, uint256 value, bytes calldata data) external returns (uint256 id) {
        require(token.getPriorVotes(msg.sender, block.number - 1) >= 100_000e18, "below threshold");
        id = ++proposalCount;
        Proposal storage p = proposals[id];
        p.proposer = msg.sender;
        p.target = target;
        p.value = value;
        p.data = data;
        p.startBlock = block.number + 1;
        p.endBlock = block.number + 1 + VOTING_PERIOD;
        emit ProposalCreated(id, msg.sender);
    }

    function castVote(uint256 id, bool support) external {
        Proposal storage p = proposals[id];
        require(block.number >= p.startBlock && block.number <= p.endBlock, "voting closed");
        require(!hasVoted[id][msg.sender], "voted");
        uint256 votes = token.getPriorVotes(msg.sender, p.startBlock);
        hasVoted[id][msg.sender] = true;
        if (support) p.forVotes += votes;
        else p.againstVotes += votes;
        emit VoteCast(msg.sender, id, support, votes);
    }

    function queue(uint256 id) external {
        Proposal storage p = proposals[id];
        require(block.number > p.endBlock && !p.canceled, "not finished");
        require(p.forVotes > p.againstVotes && p.forVotes >= QUORUM, "defeated");
        p.eta = block.timestamp + timelock.delay();
        timelock.queueTransaction(p.target, p.value, "", p.data, p.eta);
    }

    function execute(uint256 id) external payable {
        Proposal storage p = proposals[id];
        require(p.eta != 0 && !p.executed, "not queued");
        p.executed = true;
        timelock.executeTransaction{value: p.value}(p.target, p.value, "", p.data, p.eta);
    }

    function cancel(uint256 id) external {
        Proposal storage p = proposals[id];
        require(msg.sender == p.proposer, "proposer");
        require(!p.executed, "executed");
        p.canceled = true;
        if (p.eta != 0) timelock.cancelTransaction(p.target, p.value, "", p.data, p.eta);
    }
}

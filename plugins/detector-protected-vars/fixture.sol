pragma solidity ^0.8.0;

contract Fees {
    address public owner;
    uint256 public fee;
    address public treasury;
    mapping(address => uint256) public balance;
    mapping(address => address) public referrer;

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    function setFee(uint256 f) external onlyOwner {
        fee = f;
    }

    function setTreasury(address t) external onlyOwner {
        treasury = t;
    }

    function initFee(uint256 f) external { // expect: protected-vars
        fee = f;
    }

    function setReferrer(address r) external {
        referrer[msg.sender] = r;
    }

    function adminSetReferrer(address user, address r) external onlyOwner {
        referrer[user] = r;
    }

    function deposit(uint256 amount) external {
        balance[msg.sender] += amount;
    }
}

contract Rounds {
    address public owner = msg.sender;
    uint256 public start = 1;
    mapping(uint256 => address) public tokenOf;

    function setStart(uint256 when) external {
        require(msg.sender == owner && start == 1);
        start = when;
    }

    function setToken(uint256 id, address t) external {
        require(msg.sender == owner);
        tokenOf[id] = t;
    }

    function close() external {
        if (start > 1 && block.number > start + 100) start = 0;
    }

    function settle(uint256 id) external {
        delete tokenOf[id];
    }
}

pragma solidity ^0.8.0;

contract Staking {
    struct Stake {
        uint128 amount;
        uint64 since;
    }

    mapping(address => Stake) public stakes;
    mapping(address => uint256) public credit;
    uint256 public constant MAX_STAKE = 1e30;

    function stake(uint256 amount) external {
        credit[msg.sender] += amount;
        stakes[msg.sender].amount += uint128(amount); // expect: unsafe-casting
    }

    mapping(address => uint256) public lockedUntil;

    function lock(uint256 until) public {
        lockedUntil[msg.sender] = until;
        stakes[msg.sender].since = uint64(until); // expect: unsafe-casting
    }

    mapping(address => uint24) public numbers;

    function pick(uint256 packed) public {
        numbers[msg.sender] = uint24(packed);
    }

    function stakeChecked(uint256 amount) external {
        require(amount <= type(uint128).max, "too large");
        credit[msg.sender] += amount;
        stakes[msg.sender].amount += uint128(amount);
    }

    function stakeBounded(uint256 amount) external {
        if (amount > MAX_STAKE) revert();
        stakes[msg.sender].amount += uint128(amount);
    }

    function stakeRoundTrip(uint256 amount) external {
        require(uint128(amount) == amount);
        stakes[msg.sender].amount += uint128(amount);
    }

    function widen(uint64 small) external {
        credit[msg.sender] += uint256(small);
    }

    function now64() external view returns (uint64) {
        return uint64(block.timestamp);
    }

    function _toUint128(uint256 v) internal pure returns (uint128) {
        return uint128(v);
    }

    address public owner;
    uint8 public decimals;

    constructor(uint256 d) {
        owner = msg.sender;
        decimals = uint8(d);
        credit[msg.sender] = d;
    }

    function setLock(address who, uint256 until) external {
        require(msg.sender == owner);
        lockedUntil[who] = until;
        stakes[who].since = uint64(until);
    }

    function sameWidth(uint128 v) external {
        stakes[msg.sender].amount = uint128(v);
    }
}

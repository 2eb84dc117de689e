pragma solidity ^0.8.0;

contract Limits {
    uint256 public minLimit;
    uint256 public maxLimit;

    function setLimits(uint256 lo, uint256 hi) external {
        minLimit = lo; // expect: write-after-write
        minLimit = hi;
    }

    function setBoth(uint256 lo, uint256 hi) external {
        minLimit = lo;
        maxLimit = hi;
    }

    function step(uint256 a) external pure returns (uint256 r) {
        r = a;
        r = r * 2;
    }

    function local(uint256 a) external pure returns (uint256) {
        uint256 t;
        t = a + 1; // expect: write-after-write
        t = a + 2;
        return t;
    }
}

contract Guarded {
    uint256 private locked = 1;

    modifier nonReentrant() {
        locked = 2;
        _;
        locked = 1;
    }

    function f() external nonReentrant {}
}

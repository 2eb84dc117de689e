pragma solidity ^0.8.0;

contract Rewards {
    uint256 public totalStake;
    uint256 public pool;
    uint256 public constant UNIT = 1e18;
    mapping(address => uint256) public stake;

    function reward(address a) public view returns (uint256) {
        return stake[a] / totalStake * pool; // expect: divide-before-multiply
    }

    function rewardViaLocal(address a) public view returns (uint256) {
        uint256 share = stake[a] / totalStake;
        return share * pool; // expect: divide-before-multiply
    }

    function rewardOk(address a) public view returns (uint256) {
        return stake[a] * pool / totalStake;
    }

    function roundDown(uint256 x) public pure returns (uint256) {
        return x / UNIT * UNIT;
    }
}

contract Euclid {
    function inverse(uint256 a, uint256 n) public pure returns (int256 x) {
        uint256 gcd = n;
        uint256 remainder = a;
        int256 y = 1;
        while (remainder != 0) {
            uint256 quotient = gcd / remainder;
            (gcd, remainder) = (remainder, gcd - remainder * quotient);
            (x, y) = (y, x - y * int256(quotient));
        }
    }
}

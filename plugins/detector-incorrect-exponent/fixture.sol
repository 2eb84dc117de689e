pragma solidity ^0.8.0;

contract Token {
    uint256 public constant DECIMALS = 10 ^ 18; // expect: incorrect-exponent
    uint256 public constant ONE = 10 ** 18;
    uint256 public cap;

    function setCap(uint256 bits) external {
        cap = 2 ^ bits; // expect: incorrect-exponent
    }

    function mix(uint256 a, uint256 b) external pure returns (uint256) {
        return (a ^ b) ^ 0xff ^ (a ^ 1);
    }
}

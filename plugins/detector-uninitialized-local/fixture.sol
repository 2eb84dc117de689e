pragma solidity ^0.8.0;

interface IToken {
    function transfer(address to, uint256 amount) external returns (bool);
}

contract Fees {
    uint256 public collected;

    function payout(uint256 fee) external {
        address payable receiver; // expect: uninitialized-local
        receiver.transfer(fee);
    }

    function total(uint256[] calldata xs) external pure returns (uint256) {
        uint256 sum;
        for (uint256 i; i < xs.length; i++) {
            sum += xs[i];
        }
        return sum;
    }

    function swap(uint256 a, uint256 b) external pure returns (uint256, uint256) {
        uint256 x;
        uint256 y;
        (x, y) = (b, a);
        return (x, y);
    }

    function viaAssembly() external view returns (uint256) {
        uint256 size;
        assembly {
            size := extcodesize(address())
        }
        return size;
    }

    function limit() external view returns (bool) {
        uint256 cap; // expect: uninitialized-local
        return collected < cap;
    }
}

contract Unused {
    function f() external pure returns (uint256) {
        address spare;
        uint256 k;
        k = 1;
        return k;
    }
}

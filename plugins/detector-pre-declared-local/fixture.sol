pragma solidity ^0.4.24;

contract Exchange {
    uint256 public rate = 3;
    mapping(address => uint256) public balances;

    function trade(uint256 amount) public {
        uint256 fee = amount * rate / 100; // expect: pre-declared-local
        uint256 rate = 5;
        balances[msg.sender] -= amount + fee + rate;
    }

    function lastIndex(uint256[] values, uint256 target) public pure returns (uint256) {
        for (uint256 i = 0; i < values.length; i++) {
            if (values[i] == target) break;
        }
        return i; // expect: pre-declared-local
    }

    function twoPasses(uint256[] values) public pure returns (uint256 evens) {
        for (uint256 k = 0; k < values.length; k++) {
            if (values[k] % 2 == 0) evens++;
        }
        for (k = 0; k < values.length; k++) {
            if (values[k] % 2 == 0) evens++;
        }
    }

    function sum(uint256[] values) public pure returns (uint256 total) {
        for (uint256 j = 0; j < values.length; j++) {
            uint256 v = values[j];
            if (v > 0) {
                total += v;
            }
        }
    }

    function scaled(uint256 amount) public view returns (uint256) {
        uint256 r = rate;
        {
            uint256 doubled = r * 2;
            amount += doubled;
        }
        return amount * r;
    }
}

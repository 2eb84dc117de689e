pragma solidity ^0.8.0;

contract Checks {
    uint256[] public items;
    int256 public delta;

    function add(uint256 amount) external {
        require(amount >= 0); // expect: tautology
        items.push(amount);
    }

    function small(uint8 x) external pure returns (bool) {
        return x < 256; // expect: tautology
    }

    function sumDown(uint256 n) external view returns (uint256 s) {
        for (uint256 i = n; i >= 0; i--) { // expect: tautology
            s += items[i];
        }
    }

    function fine(uint256 amount, int256 d) external pure returns (bool) {
        return amount > 0 && d >= 0 && amount < 256;
    }
}

contract Redundant {
    function inRange(uint256 id, uint256 n) external pure returns (bool) {
        if (id < 0 || id > n) return false;
        return 0 <= id && id < n;
    }
}

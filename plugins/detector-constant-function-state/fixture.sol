pragma solidity ^0.4.24;

contract Oracle {
    uint256 public lastQuery;
    uint256 public price = 100;

    function currentPrice() public constant returns (uint256) { // expect: constant-function-state
        lastQuery = now;
        return price;
    }

    function peek() public view returns (uint256) {
        return price + lastQuery;
    }

    function update(uint256 p) public {
        price = p;
    }
}

pragma solidity ^0.8.0;

contract Ledger {
    mapping(address => int256) public balance;
    int256 public offset;

    function debit(address who, int256 amount) external {
        balance[who] =- amount; // expect: dangerous-unary-operator
    }

    function setOffset(int256 v) external {
        offset = -v;
        offset -= 1;
        balance[msg.sender] = - v;
    }
}

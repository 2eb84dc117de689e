// SPDX-License-Identifier: UNLICENSED
// The contract docs/API.md's examples analyse: a reentrancy, an unchecked call and a tx.origin check.
pragma solidity ^0.4.24;

contract Bank {
    mapping(address => uint256) public balances;
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function withdraw(uint256 amount) public {
        require(tx.origin == owner);
        require(balances[msg.sender] >= amount);
        msg.sender.call.value(amount)();
        balances[msg.sender] -= amount;
    }
}

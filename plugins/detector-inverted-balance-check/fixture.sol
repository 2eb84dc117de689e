pragma solidity ^0.4.24;

contract Wallet {
    mapping(address => uint256) balances;

    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }

    function withdraw(uint256 amount) public {
        require(amount >= balances[msg.sender]); // expect: inverted-balance-check
        msg.sender.transfer(amount);
        balances[msg.sender] -= amount;
    }

    function withdrawBackwards(uint256 amount) public {
        if (balances[msg.sender] < amount) { // expect: inverted-balance-check
            balances[msg.sender] -= amount;
            msg.sender.transfer(amount);
        }
    }

    function withdrawOk(uint256 amount) public {
        require(balances[msg.sender] >= amount);
        balances[msg.sender] -= amount;
        msg.sender.transfer(amount);
    }
}

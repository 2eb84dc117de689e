pragma solidity ^0.4.24;

contract Puzzle {
    bytes32 constant hash = 0xb5b5b97fafd9855eec9b41f74dfb6c38f5951141f9a3ecd7f44d5479b630ee0a;
    address owner;
    uint reward;
    mapping(address => uint) credit;

    function solve(string solution) public {
        require(hash == keccak256(solution)); // expect: transaction-order-dependence
        msg.sender.transfer(1000 ether);
    }

    function setReward() public payable {
        require(msg.sender == owner);
        owner.transfer(reward); // expect: transaction-order-dependence
        reward = msg.value;
    }

    function claim() public {
        msg.sender.transfer(reward); // expect: transaction-order-dependence
    }

    function withdraw() public {
        uint a = credit[msg.sender];
        credit[msg.sender] = 0;
        msg.sender.transfer(a);
    }
}

pragma solidity ^0.4.11;

contract Coin {
    mapping(address => uint) balances;

    modifier onlyPayloadSize(uint size) {
        require(msg.data.length >= size + 4);
        _;
    }

    function sendCoin(address to, uint amount) public returns (bool) { // expect: short-address
        if (balances[msg.sender] < amount) return false;
        balances[msg.sender] -= amount;
        balances[to] += amount;
        return true;
    }

    function safeSend(address to, uint amount) public onlyPayloadSize(2 * 32) returns (bool) {
        if (balances[msg.sender] < amount) return false;
        balances[msg.sender] -= amount;
        balances[to] += amount;
        return true;
    }

    function mint(address to, uint amount) public {
        balances[to] += amount;
    }
}

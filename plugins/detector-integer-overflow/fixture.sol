pragma solidity ^0.4.24;

library SafeMath {
    function add(uint a, uint b) internal pure returns (uint) {
        uint c = a + b;
        assert(c >= a);
        return c;
    }
}

contract Token {
    using SafeMath for uint;
    mapping(address => uint) balances;
    uint count = 1;
    uint constant PRICE = 1 ether;

    function transfer(address to, uint value) public {
        balances[msg.sender] -= value; // expect: integer-overflow
        balances[to] += value; // expect: integer-overflow
    }

    function safeTransfer(address to, uint value) public {
        require(balances[msg.sender] >= value);
        balances[msg.sender] -= value;
        balances[to] = balances[to].add(value);
    }

    function buy(uint n) public payable {
        require(msg.value == n * PRICE); // expect: integer-overflow
        balances[msg.sender] += msg.value;
        count += 1;
        uint fee = 2 * 3;
    }

    function scale(uint input) public {
        uint res = count * input; // expect: integer-overflow
    }
}

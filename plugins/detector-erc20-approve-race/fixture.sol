pragma solidity ^0.4.24;

contract Token {
    mapping(address => mapping(address => uint256)) allowed;

    function approve(address spender, uint256 value) public returns (bool) { // expect: erc20-approve-race
        allowed[msg.sender][spender] = value;
        return true;
    }
}

contract SafeToken {
    mapping(address => mapping(address => uint256)) allowed;

    function approve(address spender, uint256 value) public returns (bool) {
        require(value == 0 || allowed[msg.sender][spender] == 0);
        allowed[msg.sender][spender] = value;
        return true;
    }
}

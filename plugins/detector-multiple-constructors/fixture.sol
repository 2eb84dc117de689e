pragma solidity ^0.4.24;

contract Wallet {
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function Wallet() public { // expect: multiple-constructors
        owner = msg.sender;
    }
}

contract Vault {
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function Wallet() public view returns (address) {
        return owner;
    }
}

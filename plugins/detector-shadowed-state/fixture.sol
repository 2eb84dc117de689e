pragma solidity ^0.4.24;

contract Owned {
    address public owner;
    uint constant FEE = 1;

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }
}

contract Wallet is Owned {
    address public owner; // expect: shadowed-state
    uint constant FEE = 2;
    uint public total;

    constructor() public {
        owner = msg.sender;
    }

    function withdraw() public onlyOwner {
        msg.sender.transfer(address(this).balance);
    }
}

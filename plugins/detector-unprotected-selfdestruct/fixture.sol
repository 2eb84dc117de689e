pragma solidity ^0.4.24;

contract Killable {
    address owner;

    constructor() public {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    function kill() public {
        selfdestruct(msg.sender); // expect: unprotected-selfdestruct
    }

    function ownerKill() public onlyOwner {
        selfdestruct(owner);
    }

    function inlineKill() public {
        if (msg.sender != owner) revert();
        suicide(owner);
    }
}

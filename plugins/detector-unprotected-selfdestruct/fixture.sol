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

contract OpenInit {
    address owner;

    function initOwner(address o) public {
        require(owner == address(0));
        owner = o;
    }

    function kill() public { // expect: unprotected-selfdestruct
        require(msg.sender == owner);
        selfdestruct(msg.sender);
    }
}

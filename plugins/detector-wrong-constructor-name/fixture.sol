pragma solidity ^0.4.24;

contract Missing {
    address private owner;

    function IamMissing() public { // expect: wrong-constructor-name
        owner = msg.sender;
    }

    function withdraw() public {
        require(msg.sender == owner);
        owner.transfer(this.balance);
    }
}

contract Proper {
    address private owner;

    constructor() public {
        owner = msg.sender;
    }

    function properName() public view returns (address) {
        return owner;
    }
}

contract Lowercase {
    uint public x;

    function lowercase() public { // expect: wrong-constructor-name
        x = 1;
    }

    function clear() public {
        x = 0;
    }
}

// Running it again stores the same constant into a variable nothing else changes: no effect.
contract Settled {
    uint public fee;

    function settled() public {
        fee = 100;
    }
}

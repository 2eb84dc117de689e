pragma solidity ^0.4.24;

contract Proxy {
    address owner;
    address lib;

    constructor(address l) public {
        owner = msg.sender;
        lib = l;
    }

    function forward(address callee, bytes data) public {
        require(callee.delegatecall(data)); // expect: unprotected-delegatecall
    }

    function() public {
        lib.delegatecall(msg.data); // the proxy pattern: a fixed implementation, the design
    }

    function upgradeCall(bytes data) public {
        require(msg.sender == owner);
        require(lib.delegatecall(data));
    }
}

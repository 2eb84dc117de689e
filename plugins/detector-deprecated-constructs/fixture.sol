pragma solidity 0.4.24;

contract Old {
    address owner;

    function check(uint x) public constant returns (bytes32) { // expect: deprecated-constructs
        if (x == 0) throw; // expect: deprecated-constructs
        if (x == 1) throw;
        var y = x; // expect: deprecated-constructs
        return sha3(y); // expect: deprecated-constructs
    }

    function kill() public {
        require(msg.sender == owner);
        suicide(owner); // expect: deprecated-constructs
    }

    function modern(uint x) public pure returns (bytes32) {
        require(x != 0);
        return keccak256(abi.encodePacked(x));
    }
}

pragma solidity 0.4.24;

contract Old {
    address owner;

    function check(uint x) public constant returns (bytes32) {
        if (x == 0) throw; // expect: deprecated-constructs
        if (x == 1) throw;
        var y = x;
        var z = uint256(0);
        for (var i = 0; i < x; i++) { // expect: deprecated-constructs
            y += i;
        }
        return sha3(y);
    }

    function forward(address lib) public {
        require(msg.sender == owner);
        require(lib.callcode(bytes4(keccak256("run()")))); // expect: deprecated-constructs
    }

    function kill() public {
        require(msg.sender == owner);
        suicide(owner);
    }

    function modern(uint x) public pure returns (bytes32) {
        require(x != 0);
        return keccak256(abi.encodePacked(x));
    }
}

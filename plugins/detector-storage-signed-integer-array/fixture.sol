pragma solidity ^0.4.24;

contract Penalties {
    int256[3] public penalty = [-1, -5, -10]; // expect: storage-signed-integer-array
    int8[3] public small = [-1, 5, -10];
    int256[3] public positive = [1, 5, 10];
    uint256[3] public unsigned = [1, 5, 10];
    int256[] public history;
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function reset() public {
        require(msg.sender == owner);
        penalty = [-2, -4, -8]; // expect: storage-signed-integer-array
        small = [int8(-2), -4, -8];
    }

    function record(int256 v) public {
        require(msg.sender == owner);
        int256[3] memory local = [int256(-1), -2, -3];
        history.push(v + local[0]);
    }
}

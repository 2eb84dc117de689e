pragma solidity ^0.4.24;

contract Lottery {
    uint256 private salt = block.timestamp; // expect: bad-randomness
    uint public deadline;
    address[] players;

    function draw() public returns (uint) {
        uint seed = block.number; // expect: bad-randomness
        uint r = uint(keccak256(seed, salt)) % players.length; // expect: bad-randomness
        bytes32 h = blockhash(block.number - 1); // expect: bad-randomness
        bytes32 never = keccak256(blockhash(block.number - 2));
        return uint(h) == 0 ? r : 0;
    }

    function coin() public view returns (bool) {
        return (block.number % 2) == 0; // expect: bad-randomness
    }

    function open() public {
        deadline = now + 1 days;
        require(block.number > 100);
    }

    function commit(bytes32 secret) public pure returns (bytes32) {
        return keccak256(secret);
    }
}

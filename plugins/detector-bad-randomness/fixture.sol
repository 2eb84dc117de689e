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

interface ITimelock {
    function queued(bytes32 id) external view returns (bool);
}

// Block values that select nothing: an oracle's packed timestamp, a timelock's eta hashed into
// an operation id handed to another contract, a blockhash accessor of a caller-chosen block.
contract NotDraws {
    uint32 last;
    uint price;
    ITimelock timelock;

    function update(uint reserve) public {
        uint32 ts = uint32(block.timestamp % 2**32);
        uint32 elapsed = ts - last;
        if (elapsed > 0) price += reserve * elapsed;
        last = ts;
    }

    function queue(address target, uint delay) public view returns (bool) {
        uint48 eta = uint48(block.timestamp + delay);
        return timelock.queued(keccak256(abi.encode(target, eta)));
    }

    function hashOf(uint blockNumber) public view returns (bytes32) {
        return block.number - blockNumber < 257 ? blockhash(blockNumber) : bytes32(0);
    }

    function flip() public view returns (bool) {
        // The timestamp alone: reported once, by timestamp-dependence (timestamp used as entropy).
        return uint8(block.timestamp) % 2 == 0;
    }

    function pick(uint n) public view returns (uint) {
        return uint(blockhash(block.number - 1)) % n; // expect: bad-randomness
    }

    // No branch at all: the modulo picks a record, which is the draw.
    address[] entrants;
    address winner;
    function settle() public {
        winner = entrants[block.number % entrants.length]; // expect: bad-randomness
    }
}

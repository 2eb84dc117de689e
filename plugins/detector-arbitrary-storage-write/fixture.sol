pragma solidity ^0.4.24;

contract Codes {
    uint[] private codes;
    uint[] private safe;
    address owner;

    function push(uint c) public {
        codes.push(c);
        safe.push(c);
    }

    function pop() public {
        codes.length--; // expect: arbitrary-storage-write
    }

    function update(uint idx, uint c) public {
        require(idx < codes.length);
        codes[idx] = c; // expect: arbitrary-storage-write
    }

    function updateSafe(uint idx, uint c) public {
        require(idx < safe.length);
        safe[idx] = c;
    }

    function shrinkSafe() public {
        require(msg.sender == owner);
        safe.length--;
    }
}

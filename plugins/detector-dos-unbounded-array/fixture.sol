pragma solidity ^0.4.24;

contract Registry {
    address[] entrants;
    address[] admins;
    address owner;
    uint[8] fixedSlots;

    function enter() public {
        entrants.push(msg.sender);
    }

    function enterMany(uint n) public {
        for (uint i = 0; i < n; i++) { // expect: dos-unbounded-array
            entrants.push(msg.sender);
        }
    }

    function payAll() public {
        for (uint i = 0; i < entrants.length; i++) { // expect: dos-unbounded-array
            fixedSlots[i % 8] = i;
        }
    }

    function clear() public {
        entrants = new address[](0); // expect: dos-unbounded-array
    }

    function addAdmin(address a) public {
        require(msg.sender == owner);
        admins.push(a);
    }

    function countAdmins() public view returns (uint n) {
        for (uint i = 0; i < admins.length; i++) n++;
    }
}

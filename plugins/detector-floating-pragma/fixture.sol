pragma solidity ^0.4.24; // expect: floating-pragma
pragma solidity 0.4.25;

contract Pinned {
    uint x;
}

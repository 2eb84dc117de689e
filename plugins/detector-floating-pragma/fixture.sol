pragma solidity >=0.4.22 <0.6.0; // expect: floating-pragma
pragma solidity ^0.4.24;
pragma solidity 0.4.25;
pragma solidity >=0.4.0; // expect: floating-pragma

contract Pinned {
    uint x;
}

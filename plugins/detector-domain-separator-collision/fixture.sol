pragma solidity ^0.8.0;

contract WrongType {
    uint256 public DOMAIN_SEPARATOR; // expect: domain-separator-collision
    constructor() { DOMAIN_SEPARATOR = block.chainid; }
}

contract WrongReturn {
    function DOMAIN_SEPARATOR() external view returns (uint256) { // expect: domain-separator-collision
        return block.chainid;
    }
}

contract Standard {
    bytes32 public immutable separator = keccak256("x");
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return separator;
    }
}

contract StandardVariable {
    bytes32 public DOMAIN_SEPARATOR = keccak256("y");
}

contract Internal {
    function DOMAIN_SEPARATOR() internal pure returns (uint256) {
        return 1;
    }
    function domainSeparator() external pure returns (uint256) {
        return DOMAIN_SEPARATOR();
    }
}

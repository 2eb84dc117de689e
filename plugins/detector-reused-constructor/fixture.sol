pragma solidity ^0.4.24;

contract Ownable {
    address public owner;

    constructor(address o) public {
        owner = o;
    }
}

contract Token is Ownable(0x1111111111111111111111111111111111111111) {
    uint256 public supply;

    constructor() public {
        supply = 1000;
    }
}

contract Sale is Token { // expect: reused-constructor
    constructor() public Ownable(msg.sender) {}
}

contract BigSale is Sale {
    uint256 public cap = 10;
}

contract Vault is Ownable {
    constructor() public Ownable(msg.sender) {}
}

contract Fund is Ownable(0x2222222222222222222222222222222222222222) {
    uint256 public fee = 1;
}

contract Both is Vault, Fund { // expect: reused-constructor
    uint256 public x;
}

contract Plain is Vault {
    uint256 public y;
}

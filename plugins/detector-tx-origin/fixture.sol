pragma solidity ^0.4.24;

contract Phishable {
    address owner;

    modifier onlyHuman() {
        require(tx.origin == msg.sender);
        _;
    }

    function withdrawAll(address to) public {
        require(tx.origin == owner); // expect: tx-origin
        to.transfer(this.balance);
    }

    function ping() public onlyHuman {
        owner = tx.origin;
    }
}

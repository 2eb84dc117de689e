pragma solidity ^0.4.24;

contract Wallet {
    address owner;
    mapping(address => bool) admins;
    uint total;

    function initWallet() public { // expect: unprotected-owner-change
        owner = msg.sender;
    }

    function addAdmin(address a) external { // expect: unprotected-owner-change
        admins[a] = true;
    }

    function changeOwner(address o) public {
        require(msg.sender == owner);
        owner = o;
    }

    function setAdmin(address a) public {
        require(admins[msg.sender]);
        admins[a] = true;
    }

    function deposit() public payable {
        total += msg.value;
    }

    function withdraw() public {
        require(msg.sender == owner);
        msg.sender.transfer(address(this).balance);
    }
}

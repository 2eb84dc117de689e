pragma solidity ^0.4.24;

contract Game {
    uint public lastPlay;
    uint public created;
    event Played(address who, uint when);

    function play() public payable {
        require(now != lastPlay); // expect: timestamp-dependence
        lastPlay = now; // expect: timestamp-dependence
        if (block.timestamp % 15 == 0) { // expect: timestamp-dependence
            msg.sender.transfer(this.balance);
        }
        emit Played(msg.sender, block.timestamp);
    }

    function clock() public view returns (uint) {
        return block.timestamp; // expect: timestamp-dependence
    }

    function record() public {
        created = block.timestamp;
    }
}

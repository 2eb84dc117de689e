pragma solidity ^0.4.24;

contract Auction {
    address leader;
    uint bid;
    address owner;
    address[] refunds;
    mapping(address => uint) owed;

    function place() public payable {
        require(msg.value > bid);
        require(leader.send(bid)); // expect: dos-external-call
        leader = msg.sender;
        bid = msg.value;
    }

    function refundAll() public {
        for (uint i = 0; i < refunds.length; i++) {
            require(refunds[i].send(owed[refunds[i]])); // expect: dos-external-call
        }
    }

    function withdraw() public {
        uint a = owed[msg.sender];
        owed[msg.sender] = 0;
        msg.sender.transfer(a);
    }

    function payOwner() public {
        require(msg.sender == owner);
        owner.transfer(this.balance);
    }
}

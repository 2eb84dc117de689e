pragma solidity ^0.4.24;

contract Wallet {
    address owner;
    mapping(address => uint) balances;

    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }

    function refund() public {
        msg.sender.transfer(balances[msg.sender]); // expect: unprotected-ether-withdrawal
    }

    function drain(address to) public {
        to.transfer(address(this).balance); // expect: unprotected-ether-withdrawal
    }

    function withdraw() public {
        uint amount = balances[msg.sender];
        balances[msg.sender] = 0;
        msg.sender.transfer(amount);
    }

    function ownerDrain() public {
        require(msg.sender == owner);
        msg.sender.transfer(address(this).balance);
    }

    function claim(uint guess) public {
        if (guess == 42) msg.sender.transfer(address(this).balance);
    }
}

contract Faucet {
    mapping(address => bool) claimed;
    uint constant PRIZE = 1 ether;

    function () public payable {}

    function f() public payable {
        msg.sender.transfer(1 ether); // expect: unprotected-ether-withdrawal
    }

    function prize(address to) public {
        to.transfer(PRIZE); // expect: unprotected-ether-withdrawal
    }

    function claimOnce() public {
        require(!claimed[msg.sender]);
        claimed[msg.sender] = true;
        msg.sender.transfer(1 ether);
    }

    function tip() public payable {
        msg.sender.transfer(msg.value);
    }
}

contract Treasury {
    mapping(address => uint) public credit;
    uint public paidOut;

    function () public payable {}

    function send(address to, uint amount) public {
        to.transfer(amount); // expect: unprotected-ether-withdrawal
    }

    function sendRecorded(address to, uint amount) public {
        credit[msg.sender] -= amount;
        to.transfer(amount);
    }

    function sendChecked(address to, uint amount) public {
        require(credit[msg.sender] >= amount);
        credit[msg.sender] = 0;
        to.transfer(amount);
    }
}

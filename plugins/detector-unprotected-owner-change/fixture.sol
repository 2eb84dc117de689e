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

contract Channels {
    struct Channel {
        address[2] parties;
        uint[2] balances;
    }
    mapping(uint => Channel) chans;

    function close(uint id, uint a, uint b) public {
        require(chans[id].parties[0] == msg.sender || chans[id].parties[1] == msg.sender);
        chans[id].balances[0] = a;
    }

    // Anyone may settle balances (a game rule here); only the parties member is owner state.
    function settle(uint id) public {
        chans[id].balances[0] = 0;
        chans[id].balances[1] = 0;
    }

    function takeOver(uint id, address p) public { // expect: unprotected-owner-change
        chans[id].parties[0] = p;
    }

    function reset(uint id) public { // expect: unprotected-owner-change
        delete chans[id];
    }
}

// Operators a holder appoints for themself: the row written is the caller's own.
contract Operators {
    mapping(address => mapping(address => bool)) public isOperator;
    mapping(address => uint) public balanceOf;

    function setOperator(address operator, bool approved) public {
        isOperator[msg.sender][operator] = approved;
    }

    function setOperatorFor(address owner, address operator) public { // expect: unprotected-owner-change
        isOperator[owner][operator] = true;
    }

    function transferFrom(address from, address to, uint amount) public {
        if (msg.sender != from && !isOperator[from][msg.sender]) revert();
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
    }
}

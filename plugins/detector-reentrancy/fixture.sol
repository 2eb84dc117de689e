pragma solidity ^0.4.24;

contract Bank {
    mapping(address => uint) balances;
    mapping(address => bool) claimed;
    bool locked;

    modifier noReentrancy() {
        require(!locked);
        locked = true;
        _;
        locked = false;
    }

    function withdraw(uint amount) public {
        require(balances[msg.sender] >= amount);
        if (msg.sender.call.value(amount)()) { // expect: reentrancy
            balances[msg.sender] -= amount;
        }
    }

    function withdrawAll() public {
        uint amount = balances[msg.sender];
        require(msg.sender.call.value(amount)()); // expect: reentrancy
        balances[msg.sender] = 0;
    }

    function safeWithdraw() public {
        uint amount = balances[msg.sender];
        balances[msg.sender] = 0;
        require(msg.sender.call.value(amount)());
    }

    function lockedWithdraw() public noReentrancy {
        uint amount = balances[msg.sender];
        require(msg.sender.call.value(amount)());
        balances[msg.sender] = 0;
    }

    function pay(address to, uint amount) internal {
        require(to.call.value(amount)());
    }

    function bonus() public {
        require(!claimed[msg.sender]);
        pay(msg.sender, 1 ether); // expect: reentrancy
        claimed[msg.sender] = true;
    }

    function viaSend() public {
        uint amount = balances[msg.sender];
        msg.sender.transfer(amount); // 2300-gas stipend: cannot re-enter, not reported
        balances[msg.sender] = 0;
    }
}

pragma solidity ^0.4.24;

contract Payouts {
    address owner;
    mapping(address => uint) credit;

    function bad(address a, uint v) public {
        a.call.value(v)(); // expect: unchecked-call
        a.send(v); // expect: unchecked-call
        bool ok = a.call(); // expect: unchecked-call
        a.call.value(v); // expect: unchecked-call
    }

    function good(address a, uint v) public {
        require(a.call.value(v)());
        if (!a.send(v)) revert();
        bool ok = a.call();
        require(ok);
        a.transfer(v);
    }

    function viaReturn(address a) public returns (bool) {
        return a.send(1);
    }
}

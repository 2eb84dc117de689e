pragma solidity ^0.4.2;

contract Machine {
    enum State { Open, Locked, Closed }
    State public state;

    function set(uint s) public {
        state = State(s); // expect: enum-conversion
    }

    function reset() public {
        state = State(0);
    }

    function copy(State s) public {
        state = State(s);
    }
}

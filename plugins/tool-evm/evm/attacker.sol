pragma solidity 0.4.26;

// Actors the fuzzer drives against the contracts under test. The attacker EOA calls
// vigilForward(target, calldata, reentries) so that the target sees a contract as msg.sender.
// VigilAttacker re-enters the target with the same calldata when it is paid (reentrancy
// probe); VigilRefuser rejects every payment (denial-of-service probe for push payments).
contract VigilAttacker {
    address private controller;
    address private target;
    bytes private payload;
    uint256 private reentries;

    constructor() public {
        controller = msg.sender;
    }

    function vigilForward(address t, bytes data, uint256 reenter) public payable {
        require(msg.sender == controller);
        target = t;
        payload = data;
        reentries = reenter;
        require(t.call.value(msg.value)(data));
        reentries = 0;
    }

    function () public payable {
        // Payments made with the 2300-gas stipend (send/transfer) are accepted, never re-entered.
        if (gasleft() < 40000) return;
        if (reentries == 0) return;
        reentries -= 1;
        target.call(payload);
    }
}

contract VigilRefuser {
    address private controller;

    constructor() public {
        controller = msg.sender;
    }

    function vigilForward(address t, bytes data) public payable {
        require(msg.sender == controller);
        require(t.call.value(msg.value)(data));
    }

    function () public payable {
        revert();
    }
}

// The contract the in-process analysis tools check themselves on (vigil-static's and vigil-ml's
// self-tests): the textbook reentrancy, where withdraw() (line 6) sends the balance before
// clearing it. A build that stops flagging it fails its self-test.
export const REENTRANCY_SELF_TEST = `pragma solidity ^0.4.24;
contract SelfTest {
    mapping(address => uint) balances;
    function withdraw() public {
        uint amount = balances[msg.sender];
        require(msg.sender.call.value(amount)());
        balances[msg.sender] = 0;
    }
    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }
}
`;

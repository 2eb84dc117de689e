pragma solidity ^0.8.0;

interface IOracle {
    function price() external view returns (uint256);
}

contract Fees {
    address payable treasury;
    address payable owner;
    IOracle oracle;
    address payable public beneficiary;

    constructor() {
        owner = payable(msg.sender);
    }

    function pay() external payable {
        treasury.transfer(msg.value / 10); // expect: uninitialized-state
        owner.transfer(msg.value / 10);
    }

    function quote() external view returns (uint256) {
        return oracle.price(); // expect: uninitialized-state
    }

    function payBeneficiary() external {
        beneficiary.transfer(1);
    }
}

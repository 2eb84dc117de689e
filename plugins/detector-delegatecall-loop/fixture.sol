pragma solidity ^0.8.0;

contract Batch {
    mapping(address => uint256) public balance;

    function deposit() external payable {
        balance[msg.sender] += msg.value;
    }

    function multicall(bytes[] calldata data) external payable {
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, ) = address(this).delegatecall(data[i]); // expect: delegatecall-loop
            require(ok);
        }
    }

    function multicallNoValue(bytes[] calldata data) external {
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, ) = address(this).delegatecall(data[i]);
            require(ok);
        }
    }
}

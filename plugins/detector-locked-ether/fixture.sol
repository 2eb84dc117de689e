pragma solidity ^0.8.0;

contract Mint { // expect: locked-ether
    mapping(address => uint256) public minted;

    function mint() external payable {
        require(msg.value == 0.1 ether);
        minted[msg.sender] += 1;
    }
}

contract MintWithdraw {
    address public owner = msg.sender;
    mapping(address => uint256) public minted;

    function mint() external payable {
        require(msg.value == 0.1 ether);
        minted[msg.sender] += 1;
    }

    function withdraw() external {
        require(msg.sender == owner);
        payable(owner).transfer(address(this).balance);
    }
}

contract Forwarder {
    receive() external payable {}

    function forward(address to, bytes calldata data) external {
        (bool ok, ) = to.call{value: address(this).balance}(data);
        require(ok);
    }
}

abstract contract Base {
    function pay() external payable {}
}

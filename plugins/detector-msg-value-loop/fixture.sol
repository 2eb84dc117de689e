pragma solidity ^0.8.0;

contract Shop {
    mapping(address => uint256) public credit;
    mapping(uint256 => address) public ownerOf;
    uint256 public constant PRICE = 1 ether;

    function batchBuy(uint256[] calldata ids) external payable {
        for (uint256 i = 0; i < ids.length; i++) {
            require(msg.value >= PRICE); // expect: msg-value-loop
            ownerOf[ids[i]] = msg.sender;
        }
    }

    function batchDeposit(address[] calldata to) external payable {
        for (uint256 i = 0; i < to.length; i++) {
            _credit(to[i]); // expect: msg-value-loop
        }
    }

    function _credit(address to) internal {
        credit[to] += msg.value;
    }

    function buyAll(uint256[] calldata ids) external payable {
        require(msg.value == PRICE * ids.length);
        for (uint256 i = 0; i < ids.length; i++) ownerOf[ids[i]] = msg.sender;
    }

    function deposit() external payable {
        credit[msg.sender] += msg.value;
    }
}

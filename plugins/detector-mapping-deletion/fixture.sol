pragma solidity ^0.8.0;

contract Vaults {
    struct Vault {
        address owner;
        uint256 total;
        mapping(address => uint256) shares;
    }

    struct Plain {
        address owner;
        uint256 total;
    }

    mapping(uint256 => Vault) vaults;
    mapping(uint256 => Plain) plains;
    mapping(address => uint256) balances;

    function close(uint256 id) external {
        require(vaults[id].owner == msg.sender);
        delete vaults[id]; // expect: mapping-deletion
    }

    function closePlain(uint256 id) external {
        require(plains[id].owner == msg.sender);
        delete plains[id];
        delete balances[msg.sender];
    }
}

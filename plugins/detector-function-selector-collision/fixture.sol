pragma solidity ^0.8.0;

contract Proxy {
    address public implementation;
    address internal admin;

    constructor(address impl) {
        implementation = impl;
        admin = msg.sender;
    }

    function proxyOwner() external view returns (address) {
        return admin;
    }

    fallback() external payable {
        address impl = implementation;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }
}

contract Implementation {
    mapping(address => uint256) public balances;

    function clash550254402() external { // expect: function-selector-collision
        balances[msg.sender] = 0;
    }

    function burn(uint256 amount) external {
        balances[msg.sender] -= amount;
    }
}

contract Vault {
    mapping(address => uint256) public shares;

    function collate_propagate_storage(bytes16) external { // expect: function-selector-collision
        shares[msg.sender] = 0;
    }
}

interface IBurnable {
    function burn(uint256 amount) external;
}

contract Token is IBurnable {
    mapping(address => uint256) public balances;

    function burn(uint256 amount) external override {
        balances[msg.sender] -= amount;
    }
}

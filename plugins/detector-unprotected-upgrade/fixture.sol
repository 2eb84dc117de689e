pragma solidity ^0.8.0;

contract Initializable {
    bool private initialized;

    modifier initializer() {
        require(!initialized, "already initialized");
        initialized = true;
        _;
    }

    function _disableInitializers() internal {
        initialized = true;
    }
}

contract Upgradeable is Initializable {
    address public owner;
    address public implementation;

    function initialize() external initializer {
        owner = msg.sender;
    }

    function upgradeToAndCall(address newImplementation, bytes calldata data) external { // expect: unprotected-upgrade
        require(msg.sender == owner, "not owner");
        implementation = newImplementation;
        _call(newImplementation, data);
    }

    function _call(address target, bytes calldata data) internal {
        (bool ok, ) = target.delegatecall(data);
        require(ok);
    }
}

contract Locked is Initializable {
    address public owner;

    constructor() {
        _disableInitializers();
    }

    function initialize() external initializer {
        owner = msg.sender;
    }

    function upgradeToAndCall(address newImplementation, bytes calldata data) external {
        require(msg.sender == owner, "not owner");
        (bool ok, ) = newImplementation.delegatecall(data);
        require(ok);
    }
}

contract FixedTarget is Initializable {
    address public owner;
    address public constant LIBRARY = address(0x1234);

    function initialize() external initializer {
        owner = msg.sender;
    }

    function run(bytes calldata data) external {
        require(msg.sender == owner, "not owner");
        (bool ok, ) = LIBRARY.delegatecall(data);
        require(ok);
    }
}

contract DeployerOnly is Initializable {
    address public owner;
    address public immutable deployer;

    constructor() {
        deployer = msg.sender;
    }

    function initialize(address admin) external initializer {
        require(msg.sender == deployer);
        owner = admin;
    }

    function exec(address target, bytes calldata data) external {
        require(msg.sender == owner, "not owner");
        (bool ok, ) = target.delegatecall(data);
        require(ok);
    }
}

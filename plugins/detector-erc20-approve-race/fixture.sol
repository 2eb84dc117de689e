pragma solidity ^0.4.24;

contract Token {
    mapping(address => mapping(address => uint256)) allowed;

    function approve(address spender, uint256 value) public returns (bool) { // expect: erc20-approve-race
        allowed[msg.sender][spender] = value;
        return true;
    }
}

contract SafeToken {
    mapping(address => mapping(address => uint256)) allowed;

    function approve(address spender, uint256 value) public returns (bool) {
        require(value == 0 || allowed[msg.sender][spender] == 0);
        allowed[msg.sender][spender] = value;
        return true;
    }
}

contract Context {
    function _msgSender() internal view returns (address) {
        return msg.sender;
    }
}

contract ContextToken is Context {
    mapping(address => mapping(address => uint256)) private _allowances;

    function approve(address spender, uint256 value) public returns (bool) { // expect: erc20-approve-race
        address owner = _msgSender();
        _approve(owner, spender, value);
        return true;
    }

    function _approve(address owner, address spender, uint256 value) internal {
        _allowances[owner][spender] = value;
    }
}

contract Registry {
    address public admin;

    function _msgSender() internal view returns (address) {
        return admin;
    }
}

contract RegistryToken is Registry {
    mapping(address => mapping(address => uint256)) private _allowances;

    function approve(address spender, uint256 value) public returns (bool) {
        address owner = _msgSender();
        _approve(owner, spender, value);
        return true;
    }

    function _approve(address owner, address spender, uint256 value) internal {
        _allowances[owner][spender] = value;
    }
}
